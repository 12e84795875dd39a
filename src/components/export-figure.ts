/** Saves what a user sees as a file, with nothing but the figure's own markup. */
export function downloadBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function safeFilename(title: string, ext: string): string {
  return `${
    title
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'figure'
  }.${ext}`;
}

/** A table as a CSV file named after `title`. */
export function downloadCsv(csv: string, title: string) {
  downloadBlob(new Blob([csv], { type: 'text/csv' }), safeFilename(title, 'csv'));
}

export function downloadSvg(svg: SVGSVGElement, title: string) {
  const text = new XMLSerializer().serializeToString(svg);
  downloadBlob(new Blob([text], { type: 'image/svg+xml' }), safeFilename(title, 'svg'));
}
