/** Lab prompt formats: builders return chat messages, parsers return ParseResult and never throw. */
export * from './shared';
export * from './synchrony';
export * from './opinions';
export * from './similarity';
export * from './polarization';
export * from './formats';
