import type { SidebarsConfig } from '@docusaurus/plugin-content-docs';

/** One sidebar for the whole site: the user guide first (its introduction is the main entry), then the dev guide. */
const sidebars: SidebarsConfig = {
  docs: [
    'user-guide/introduction',
    {
      type: 'category',
      label: 'User guide',
      collapsed: false,
      items: [
        'user-guide/installation',
        'user-guide/configuration',
        'user-guide/deployment',
        'user-guide/backup-and-restore',
        'user-guide/bring-your-library',
        'user-guide/export-your-library',
        {
          type: 'category',
          label: 'Features',
          collapsed: false,
          items: [
            'user-guide/features/library',
            'user-guide/features/metadata',
            'user-guide/features/albums',
            'user-guide/features/explore',
            'user-guide/features/places',
            'user-guide/features/things',
            'user-guide/features/people',
            'user-guide/features/search',
            'user-guide/features/jobs',
            'user-guide/features/users',
          ],
        },
      ],
    },
    {
      type: 'category',
      label: 'Developer guide',
      collapsed: false,
      items: [
        'dev-guide/introduction',
        'dev-guide/environment',
        'dev-guide/folder-structure',
        'dev-guide/design-document',
        'dev-guide/services',
        'dev-guide/contribution',
        'dev-guide/notes',
        'dev-guide/benchmarks',
        {
          type: 'category',
          label: 'Decisions',
          items: [
            'dev-guide/decisions/exiftool',
            'dev-guide/decisions/nats',
            'dev-guide/decisions/embedded-sqlite',
            'dev-guide/decisions/route-registry',
          ],
        },
        'dev-guide/roadmap',
      ],
    },
    { type: 'link', label: 'API reference', href: '/api/' },
  ],
};

export default sidebars;
