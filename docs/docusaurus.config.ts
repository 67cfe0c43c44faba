import path from 'node:path';
import { themes as prismThemes } from 'prism-react-renderer';
import type { Config, PluginModule } from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import type { PluginOptions as RedirectOptions } from '@docusaurus/plugin-client-redirects';
import type { PluginOptions as GtagOptions } from '@docusaurus/plugin-google-gtag';
import type * as Redocusaurus from 'redocusaurus';
import troveSources from './plugins/trove-sources';
import type { TroveSourcesOptions } from './plugins/trove-sources';

/*
 * Build-time settings (environment variables, read when the site is built — see the dev guide,
 * "Environment"):
 *   TROVE_DOCS_URL       public origin of the site (canonical URLs, sitemap); default http://localhost:3001
 *   TROVE_DOCS_REPO_URL  the source repository linked from the navbar and the docs
 *   TROVE_DOCS_GTAG_ID   Google Analytics (gtag) measurement id; unset (the default) = no analytics at all
 */
const repoRoot = path.resolve(__dirname, '..');
const siteUrl = process.env.TROVE_DOCS_URL || 'http://localhost:3001';
const repoUrl = (process.env.TROVE_DOCS_REPO_URL || 'https://github.com/trove-photos/trove').replace(/\/+$/, '');
const gtagId = process.env.TROVE_DOCS_GTAG_ID?.trim();

const gtag: GtagOptions | undefined = gtagId ? { trackingID: [gtagId], anonymizeIP: true } : undefined;

const config: Config = {
  title: 'Trove',
  tagline: 'Smarter Home for all your Photos and Videos',
  favicon: 'img/favicon.svg',
  url: siteUrl,
  baseUrl: '/',
  organizationName: 'trove',
  projectName: 'trove',

  // Broken links fail the build; broken Markdown links and anchors are reported.
  onBrokenLinks: 'throw',
  onBrokenMarkdownLinks: 'warn',
  onBrokenAnchors: 'warn',
  onDuplicateRoutes: 'throw',

  i18n: { defaultLocale: 'en', locales: ['en'], localeConfigs: { en: { label: 'English', htmlLang: 'en' } } },

  markdown: {
    // .md files are CommonMark (generated partials need no escaping), .mdx files are MDX.
    format: 'detect',
    mermaid: true,
  },
  themes: ['@docusaurus/theme-mermaid'],

  presets: [
    [
      'classic',
      {
        docs: {
          routeBasePath: 'docs',
          sidebarPath: require.resolve('./sidebars.ts'),
          // one version only, the one in this checkout
          lastVersion: 'current',
          versions: { current: { label: 'Next' } },
          showLastUpdateTime: false,
        },
        blog: false,
        pages: {},
        // analytics: only when TROVE_DOCS_GTAG_ID is set at build time, with IP anonymisation
        ...(gtag ? { gtag } : {}),
        theme: { customCss: require.resolve('./src/css/custom.css') },
      } satisfies Preset.Options,
    ],
    [
      'redocusaurus',
      {
        specs: [
          {
            id: 'trove-api',
            // the contract the gateway validates every request against — read in place, never copied
            spec: path.join(repoRoot, 'openapi/openapi.yaml'),
            route: '/api/',
          },
        ],
        theme: { primaryColor: '#2f6f4f' },
      } satisfies Redocusaurus.PresetOptions,
    ],
  ],

  plugins: [
    [troveSources as PluginModule, { repoRoot, repoUrl } satisfies TroveSourcesOptions],
    [
      '@docusaurus/plugin-client-redirects',
      // /docs/x.html → /docs/x (a static redirect page; /x/index.html is handled by src/theme/Root.tsx)
      { fromExtensions: ['html'] } satisfies Partial<RedirectOptions>,
    ],
  ],

  themeConfig: {
    image: 'img/logo.svg',
    metadata: [
      {
        name: 'keywords',
        content: 'self-hosted, photos, videos, library, gallery, immich alternative, photoprism alternative',
      },
    ],
    colorMode: { defaultMode: 'light', disableSwitch: false, respectPrefersColorScheme: false },
    announcementBar: {
      // change the id when the text changes, so readers who closed the old one see the new one
      id: 'active-development-1',
      content:
        'Trove is under active development. <a href="/docs/dev-guide/contribution">Contributions are welcome</a>.',
      isCloseable: true,
    },
    tableOfContents: { minHeadingLevel: 2, maxHeadingLevel: 3 },
    docs: { sidebar: { hideable: true, autoCollapseCategories: false } },
    navbar: {
      title: 'Trove',
      logo: { alt: 'Trove logo', src: 'img/logo.svg' },
      hideOnScroll: false,
      items: [
        { to: '/docs', label: 'Docs', position: 'left', activeBaseRegex: '^/docs(/|$)' },
        { to: '/api/', label: 'API', position: 'left' },
        { type: 'localeDropdown', position: 'right' },
        { href: repoUrl, label: 'Source', position: 'right', 'aria-label': 'Source repository' },
      ],
    },
    footer: {
      style: 'dark',
      links: [
        {
          title: 'Docs',
          items: [
            { label: 'User guide', to: '/docs/user-guide/introduction' },
            { label: 'Developer guide', to: '/docs/dev-guide/introduction' },
            { label: 'Roadmap', to: '/docs/dev-guide/roadmap' },
          ],
        },
        {
          title: 'API',
          items: [
            { label: 'API reference', to: '/api/' },
            { label: 'openapi.yaml', href: `${repoUrl}/blob/main/openapi/openapi.yaml` },
          ],
        },
        {
          title: 'Project',
          items: [
            { label: 'Source repository', href: repoUrl },
            { label: 'Contributing', to: '/docs/dev-guide/contribution' },
          ],
        },
      ],
      copyright: `Copyright © ${new Date().getFullYear()} the Trove contributors. Apache-2.0 licensed. Built with Docusaurus.`,
    },
    prism: { theme: prismThemes.github, darkTheme: prismThemes.dracula, additionalLanguages: ['bash'] },
    mermaid: { theme: { light: 'neutral', dark: 'dark' } },
  } satisfies Preset.ThemeConfig,
};

export default config;
