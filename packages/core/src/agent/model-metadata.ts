import type { LanguageModel, ModelMetadata } from './model.js';

/**
 * The metadata of the model whose id is `id`: `model` itself, or one of a composite's members
 * (`fallbackModel`), searched depth first. `undefined` when none states any.
 */
export function metadataFor(model: LanguageModel, id: string): ModelMetadata | undefined {
  if (model.id === id) return model.metadata;
  for (const member of model.models ?? []) {
    const found = metadataFor(member, id);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** True when the model, or every member of a composite, states its price. */
export function statesPrice(model: LanguageModel): boolean {
  if (model.metadata?.prices !== undefined) return true;
  const members = model.models ?? [];
  return members.length > 0 && members.every(statesPrice);
}
