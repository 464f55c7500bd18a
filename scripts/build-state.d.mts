// Types of build-state.mjs, a plain ES module so `node scripts/build.mjs` runs without TypeScript.
export declare const root: string;
export declare const dist: string;
export declare const template: string;
export declare const templateStamp: string;
export declare const bundles: { entries: Record<string, string>; outputs: string[]; external?: boolean }[];
export declare function newest(paths: string[]): number;
export declare function pgliteVersion(): string;
export declare function staleParts(): { code: boolean; template: boolean; types: string[]; ui: boolean };
export declare function isStale(): boolean;
