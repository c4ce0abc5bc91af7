/** A small site with every kind of access mark reader sign-in knows, shared by the reader sign-in tests. */
export const READER_ACCESS_SITE: Record<string, string> = {
  'docs.json': JSON.stringify({
    name: 'Access fixture',
    colors: { primary: '#0D9373' },
    navigation: {
      groups: [
        { group: 'Welcome', public: true, pages: ['index', 'open/hello'] },
        { group: 'Team', pages: ['team/notes', 'oncall/runbook', 'partner/guide', 'api-ref'] },
      ],
    },
  }),
  'index.mdx': '---\ntitle: Home\n---\n\nWelcome to the handbook.\n',
  'open/hello.mdx': '---\ntitle: Hello\n---\n\nAn open page about kettles.\n',
  'team/notes.mdx': '---\ntitle: Team notes\n---\n\nInternal quokka notes for everyone signed in.\n',
  'oncall/runbook.mdx': '---\ntitle: Pager runbook\ngroups: ["oncall"]\n---\n\nRestart the zebrafish service.\n',
  'partner/guide.mdx': '---\ntitle: Partner guide\ngroups: ["partners", "oncall"]\n---\n\nThe pangolin partner programme.\n',
  'api-ref.mdx': '---\ntitle: Release schedule\npublic: true\n---\n\nReleases ship on Tuesdays.\n',
};
