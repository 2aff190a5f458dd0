export * from './combination.js';
export * from './objectives.js';
export * from './optimise.js';
export * from './parameter-grid.js';
export * from './walk-forward.js';
