import type { PluginNames } from '../plugin-names.js';

/**
 * The scaffolded skill, `skills/<plugin>/SKILL.md`, in the Agent Skills format: front matter with
 * `name` (the folder's name) and `description` (what the model reads before it asks for the body),
 * then the instructions the model reads only when it loads the skill.
 */
export function skillFile(names: PluginNames): string {
  return `---
name: ${names.pluginName}
description: Counts the words of a text with the count_words tool. Use when the user asks how long a text, a file or a message is in words.
---

# ${names.pluginName}

When the user asks how many words something has:

1. Get the text: from the message, or read the file with the file tools.
2. Call \`count_words\` with the whole text as \`text\`.
3. Answer with the number, and say what you counted (the file's name, or "your message").

Do not count by hand: the tool splits on any run of whitespace, as a word processor does.
`;
}
