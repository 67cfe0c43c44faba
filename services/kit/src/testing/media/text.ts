import sharp from 'sharp';

/**
 * A 1600x1000 JPEG of a greeting card: large bold lines of text (DejaVu Sans, rendered by sharp's
 * librsvg) on a pastel gradient with confetti, slightly rotated, and a small italic line below.
 * What text recognition must read: the large lines.
 */
export async function textCardJpeg(lines: [string, string] = ['HAPPY BIRTHDAY', 'GRANDMA']): Promise<Buffer> {
  const [width, height] = [1600, 1000];
  const confetti = Array.from({ length: 60 }, (_, i) => {
    const colour = ['#e74c3c', '#f1c40f', '#2ecc71', '#3498db', '#9b59b6'][i % 5];
    return `<circle cx="${(i * 397) % width}" cy="${(i * 233) % height}" r="${6 + (i % 5) * 3}" fill="${colour}" opacity="0.55"/>`;
  }).join('');
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff3e0"/><stop offset="1" stop-color="#fce4ec"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${confetti}
    <g transform="rotate(-3 800 500)" font-family="DejaVu Sans" font-weight="bold" text-anchor="middle" fill="#8e24aa">
      <text x="800" y="420" font-size="150">${escape(lines[0])}</text>
      <text x="800" y="640" font-size="170">${escape(lines[1])}</text>
    </g>
    <text x="800" y="900" font-family="DejaVu Serif" font-style="italic" font-size="44" text-anchor="middle" fill="#555">with love from all of us</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}
