/** A site that reaches out the ways real sites do: remote images, an embed, web fonts, analytics. */
export const REMOTE_SITE: Record<string, string> = {
  'docs.json': JSON.stringify({
    name: 'Remote', colors: { primary: '#0D9373' }, navigation: { pages: ['index', 'guides/media'] },
    fonts: { family: 'Webby', source: 'https://fonts.example.net/webby.woff2', format: 'woff2' },
  }),
  'index.mdx': [
    '---', 'title: Home', '---', '',
    '![Architecture overview](https://cdn.example.net/img/architecture.png)', '',
    '<img src="https://cdn.example.net/brand/logo-mark.svg" alt="Logo mark" />', '',
    '<img src="/images/local-only.png" alt="Local" />', '',
  ].join('\n'),
  'guides/media.mdx': [
    '---', 'title: Media', '---', '',
    '<iframe src="https://video.example.net/embed/abc" title="Intro video"></iframe>', '',
    '<img src="https://cdn.example.net/x.png" srcset="https://cdn.example.net/x@2x.png 2x" alt="Retina" />', '',
    '<img src="/images/local-only.png" srcset="https://cdn.example.net/local@2x.png 2x" alt="Local retina" />', '',
    '<div className="hero" style={{ backgroundImage: "url(https://cdn.example.net/hero.jpg)", color: "teal" }}>Hero</div>', '',
    '<script src="https://tags.example.net/inline.js"></script>', '',
    '<link rel="stylesheet" href="https://fonts.example.net/inline.css" />', '',
  ].join('\n'),
  'images/local-only.png': 'png',
  'assets/logo-mark.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'style.css': "@import url('https://fonts.example.net/css2?family=Sans');\n@font-face{font-family:X;src:url(https://fonts.example.net/x.woff2) format('woff2')}\n.hero{background:url(\"https://cdn.example.net/bg.jpg\") center;color:red}\n",
  'analytics.js': "(function(){var s=document.createElement('script');s.src='https://tags.example.net/gtag.js';document.head.appendChild(s);})();\n",
  'local.js': "document.documentElement.dataset.local = 'yes';\n",
};
