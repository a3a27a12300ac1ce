// Placeholder: written by the pull work. The lead replaces this file with POST /trigger-pull;
// app.ts already registers `triggerPullRoutes` with `{ deps }` like every other route file.
import type { RoutesPlugin } from '../route-plugin.ts';

export const triggerPullRoutes: RoutesPlugin = async () => {};
