/* Runs inside the page: accessibility facts computed from the DOM and computed styles.
   Plain JavaScript (not TypeScript) so no build tool can inject helpers the page lacks. */
(() => {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) return null;
    const p = m[1]
      .split(/[ ,/]+/)
      .filter(Boolean)
      .map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) {
        layers.push(c);
        if (c[3] >= 1) break;
      }
    }
    let out = [255, 255, 255];
    for (const l of layers.reverse()) out = out.map((v, i) => l[i] * l[3] + v * (1 - l[3]));
    return out;
  };
  const visible = (el) => {
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return (
      s.visibility !== 'hidden' &&
      s.display !== 'none' &&
      Number(s.opacity) > 0.1 &&
      r.width > 1 &&
      r.height > 1 &&
      !el.closest('[hidden],[aria-hidden="true"],svg')
    );
  };
  const lowContrast = [];
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    const hasText = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (!hasText || !visible(el)) continue;
    const fg = parse(getComputedStyle(el).color);
    const bg = background(el);
    const blended = fg.slice(0, 3).map((v, i) => v * fg[3] + bg[i] * (1 - fg[3]));
    const [hi, lo] = [lum(blended), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(getComputedStyle(el).fontSize);
    const bold = Number(getComputedStyle(el).fontWeight) >= 700;
    const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < needed)
      lowContrast.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
  }
  const headings = Array.from(document.querySelectorAll('h1,h2,h3,h4,h5,h6')).map((h) => Number(h.tagName[1]));
  const skips = headings.filter((level, i) => i > 0 && level > headings[i - 1] + 1).length;
  const controls = Array.from(document.querySelectorAll('input,select,textarea,button'))
    .filter((c) => {
      const el = c;
      const labelled =
        el.getAttribute('aria-label') ||
        el.getAttribute('aria-labelledby') ||
        (el.id && document.querySelector(`label[for="${el.id}"]`)) ||
        el.closest('label') ||
        el.getAttribute('title') ||
        (el.tagName === 'BUTTON' && el.textContent.trim());
      return !labelled;
    })
    .map((c) => c.outerHTML.slice(0, 80));
  return {
    banner: document.querySelectorAll('header.enclave-header').length,
    main: document.querySelectorAll('main').length,
    navs: document.querySelectorAll('nav').length,
    contentinfo: document.querySelectorAll('body > footer').length,
    skipLink: !!document.querySelector('a.enclave-skip[href="#enclave-content"]'),
    h1: document.querySelectorAll('h1').length,
    skips,
    imagesWithoutAlt: document.querySelectorAll('img:not([alt])').length,
    unlabelledControls: controls,
    lowContrast,
  };
})();
