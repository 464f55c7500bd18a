import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/**
 * The web UI: built by `npm install` (scripts/build.mjs) into ui/dist, which the server serves
 * at `/`. `npx vite ui` serves it with hot reload and forwards the API to a server on :4242.
 */
const api = process.env.VEXIL_API ?? "http://localhost:4242";

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 400 },
  server: {
    proxy: {
      "/graphql": { target: api, ws: true },
      "/auth": api,
      "/api": api,
      "/avatars": api,
    },
  },
});
