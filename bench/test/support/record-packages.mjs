// Loaded with `node --import`: registers the hook that names every package a child imports.
import { register } from 'node:module';

register('./record-packages-hook.mjs', import.meta.url);
