export * from './lab-definition';
export * from './errors';
export * from './validate';
export * from './link';
export * from './view-options';
export { scanUntrusted, parseJson } from './untrusted';
