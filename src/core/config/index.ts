export * from './lab-definition';
export * from './errors';
export * from './validate';
export * from './link';
export { scanUntrusted, parseJson } from './untrusted';
