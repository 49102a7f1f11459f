/**
 * Saving the timeline as a file. The svg already carries its own stylesheet, patterns and
 * markers, so a clone is self-contained once the tooltip is dropped and any canvas layer is
 * turned into an embedded image.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Serializes the timeline's svg to a standalone SVG document. */
export function exportSvg(svg: SVGSVGElement): Blob {
  return new Blob([serialize(svg)], { type: 'image/svg+xml' });
}

/** Renders the timeline's svg into a PNG at `scale` times its CSS size (2 for crisp text). */
export async function exportPng(svg: SVGSVGElement, scale = 2): Promise<Blob> {
  const width = svg.width.baseVal.value || svg.getBoundingClientRect().width;
  const height = svg.height.baseVal.value || svg.getBoundingClientRect().height;
  // A data: URL, not a blob: one: the site's Content-Security-Policy allows images from data:
  // but not from blob:, and a blocked image would never decode.
  const url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(serialize(svg))}`;
  const image = new Image();
  image.decoding = 'async';
  image.src = url;
  await image.decode();
  const canvas = svg.ownerDocument.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const c = canvas.getContext('2d');
  if (!c) throw new Error('This browser cannot draw to a canvas, so the PNG cannot be made.');
  c.fillStyle = '#ffffff';
  c.fillRect(0, 0, canvas.width, canvas.height);
  c.drawImage(image, 0, 0, canvas.width, canvas.height);
  return await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed.'))), 'image/png'),
  );
}

function serialize(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', SVG_NS);
  clone.setAttribute('xmlns:xlink', 'http://www.w3.org/1999/xlink');
  clone.querySelector('.tl-tooltip')?.remove();
  // Canvas pixels are not part of the DOM: copy them across as an image.
  const liveCanvases = svg.querySelectorAll('canvas');
  clone.querySelectorAll('foreignObject.tl-canvas-host').forEach((fo, i) => {
    const source = liveCanvases[i];
    if (source) {
      const image = svg.ownerDocument.createElementNS(SVG_NS, 'image');
      image.setAttribute('width', fo.getAttribute('width') ?? '0');
      image.setAttribute('height', fo.getAttribute('height') ?? '0');
      image.setAttribute('href', source.toDataURL('image/png'));
      fo.replaceWith(image);
    } else fo.remove();
  });
  // Future marks are hidden by a class; drop them so other viewers need not apply the stylesheet.
  clone.querySelectorAll('.tl-future').forEach((el) => el.remove());
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}`;
}
