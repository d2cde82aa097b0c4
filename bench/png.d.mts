/** A real, blank PNG of `width` x `height` (bench/png.mjs). */
export function pngImage(width: number, height: number): Buffer;
