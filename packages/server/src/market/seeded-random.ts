// Deterministic pseudo-randomness for the simulated feed: pure integer hashing, no state, so any
// value can be computed directly from (seed, stream, index) without walking earlier ones.

function mix32(value: number): number {
  let h = value | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A 32-bit seed from a string (FNV-1a, then mixed). */
export function seedFromString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** A uniform number in [0, 1) for (seed, stream, index); index is a non-negative integer. */
export function hashUnit(seed: number, stream: number, index: number): number {
  let h = mix32(seed ^ Math.imul(stream + 1, 0x9e3779b9));
  h = mix32(h ^ (index >>> 0));
  h = mix32(h ^ Math.floor(index / 4_294_967_296));
  return h / 4_294_967_296;
}
