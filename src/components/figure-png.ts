import { downloadBlob, safeFilename } from './export-figure';

/** Rasterises an SVG figure at `scale`× its viewBox size and saves it as PNG; the SVG is our own markup. */
export async function downloadPng(svg: SVGSVGElement, title: string, scale = 2) {
  const box = svg.viewBox.baseVal;
  const width = Math.round((box?.width || svg.clientWidth) * scale);
  const height = Math.round((box?.height || svg.clientHeight) * scale);
  const text = new XMLSerializer().serializeToString(svg);
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.decoding = 'async';
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, width, height);
    ctx.drawImage(img, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, 'image/png'));
    if (blob) downloadBlob(blob, safeFilename(title, 'png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
