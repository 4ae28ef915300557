import type { PluginNames } from '../plugin-names.js';

/** The scaffolded README: what the package is, how to use it, how to test and release it. */
export function readme(names: PluginNames): string {
  return `# ${names.packageName}

A [weir](https://github.com/weir-harness/weir) plugin: the \`count_words\` tool and the
\`${names.pluginName}\` skill that tells the model when to use it.

## Use it

With the weir CLI:

\`\`\`sh
weir plugin add ${names.packageName}
\`\`\`

In your own harness:

\`\`\`ts
import { createHarness, loadPlugins } from '@weir/core';

const harness = createHarness();
await loadPlugins(['${names.packageName}'], harness);
\`\`\`

## What is in it

| path | what |
| --- | --- |
| \`src/index.ts\` | the plugin factory, the package's default export |
| \`src/count-words-tool.ts\` | the tool: a schema, a tier, examples and \`execute\` |
| \`skills/${names.pluginName}/SKILL.md\` | an Agent Skill: the model sees its name and description first, the body when it asks |
| \`src/index.test.ts\` | the tests: weir's conformance kit, the tool's answer, the skill's front matter |
| \`package.json\` \`weir\` field | the parts \`weir plugin add\` registers: \`tools\` (this module) and \`skills\` (the folder) |

## Develop

\`\`\`sh
npm install
npm test          # type-checks, builds, then runs the tests with node --test
\`\`\`

The conformance kit (\`assertPluginConformance\` from \`@weir/core/testing\`) loads the plugin into
a fresh harness, checks each tool's name, description, tier and parameter descriptions as a model
sees them, runs the tool's \`examples\`, and unloads it twice, checking nothing is left behind.

## Release

Changes are recorded with [Changesets](https://github.com/changesets/changesets):

\`\`\`sh
npx changeset     # describe a change and pick its version bump
npx changeset version
npm run release   # builds, then publishes what changed
\`\`\`
`;
}

/** The scaffolded `.changeset/config.json`: one public package, released from main. */
export function changesetConfig(): string {
  const config = {
    $schema: 'https://unpkg.com/@changesets/config@4.0.1/schema.json',
    changelog: '@changesets/cli/changelog',
    commit: false,
    fixed: [],
    linked: [],
    access: 'public',
    baseBranch: 'main',
    updateInternalDependencies: 'patch',
    ignore: [],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** The scaffolded `.changeset/README.md`: what the folder is for. */
export function changesetReadme(): string {
  return `# Changesets

Each markdown file here describes one change and its version bump; \`npx changeset\` writes one,
\`npx changeset version\` turns them into a version and a CHANGELOG entry.
`;
}

/** The scaffolded `.gitignore`. */
export function gitignore(): string {
  return 'node_modules/\ndist/\n';
}
