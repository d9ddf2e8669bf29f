// Who is selling: the name and logo the demo page shows in its header, footer and tab. Shared by
// the page (browser-safe) and the CLI that configures it; the default is the product's own mark.

/** The product's mark: sound bars on the page's accent colour, drawn to read at 16 px as a tab icon. */
const MARK =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#3b5bdb"/>' +
  '<path d="M8 13v6M12 10v12M16 7v18M20 10v12M24 13v6" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/></svg>';

/** The seller a page shows when none is configured. */
export const DEFAULT_SELLER = { name: 'Voice', logo: `data:image/svg+xml,${encodeURIComponent(MARK)}` } as const;

/** An HTML document with its tab icon (`<link rel="icon">`) pointing at `href`. */
export function withFavicon(html: string, href: string): string {
  const escaped = href.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return html.replace(/<link rel="icon"[^>]*>/, () => `<link rel="icon" href="${escaped}" />`);
}
