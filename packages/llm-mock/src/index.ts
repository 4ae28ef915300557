export { createMockModel } from './create-mock-model.js';
export { createScriptedModel } from './create-scripted-model.js';
export type { ScriptedModel, ScriptedModelOptions, ScriptedResponse, ScriptedStep, ScriptedToolCall } from './create-scripted-model.js';
