/**
 * A conservative token count: one token per 3 bytes of UTF-8, rounded up. The common tokenizers
 * (OpenAI's o200k and cl100k, Anthropic's, Gemini's) give about 4 characters of English or code
 * a token, so this over-counts English by about a third; text outside ASCII takes 2 to 4 bytes a
 * character, so it is over-counted too. A bound meant to hold, not a measurement.
 */
export function conservativeTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text) / 3);
}
