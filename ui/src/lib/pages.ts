import { type ComponentType, createElement, lazy } from "react";
import { matchPath } from "react-router";
import type { Client } from "urql";

/** What a page's module exports: the page, and optionally the first queries it will run. */
export type PageModule = { default: ComponentType; prefetch?(client: Client, url: URL): void };

export type LazyPage = {
  /** The route's path as react-router reads it ("" for the index). */
  path: string;
  Component: ComponentType;
  preload(): Promise<PageModule>;
};

/**
 * A page in its own chunk, loaded on first visit. Once the chunk is there the page renders
 * without suspending, so a page preloaded while the viewer query runs appears at once:
 * React holds back the content of a Suspense boundary that showed its fallback for up to
 * 300 ms.
 */
export function lazyPage(path: string, load: () => Promise<PageModule>): LazyPage {
  let loaded: PageModule | undefined;
  let loading: Promise<PageModule> | undefined;
  const preload = () => {
    loading ??= load().then(
      (module) => {
        loaded = module;
        return module;
      },
      (error: unknown) => {
        loading = undefined; // a failed download is tried again on the next visit
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(preload);
  // biome-ignore lint/correctness/noComponentHookFactories: made once per page at module level, like React.lazy
  const Component = () => createElement(loaded?.default ?? Lazy);
  return { path, Component, preload };
}

/**
 * Starts loading the page at `url` and, once its chunk is there, the queries it opens with,
 * so that the chunk, its data and the viewer query travel at the same time instead of one
 * after the other.
 */
export function preloadPageAt(pages: LazyPage[], url: URL, client?: Client): void {
  const page = pages.find((p) => matchPath({ path: `/${p.path}`, end: true }, url.pathname));
  if (!page) return;
  void page.preload().then(
    (module) => client && module.prefetch?.(client, url),
    () => {}, // the page shows the failure when it renders
  );
}
