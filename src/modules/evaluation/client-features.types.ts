/**
 * Unleash's client-features format (what `GET /api/client/features` serves and the official
 * SDKs and the client specification read). The evaluation engine takes exactly this.
 */

export type ClientConstraint = {
  contextName: string;
  operator: string;
  values?: string[];
  value?: string;
  inverted?: boolean;
  caseInsensitive?: boolean;
};

export type VariantPayload = { type: string; value: string };

export type VariantOverride = { contextName: string; values: string[] };

export type ClientVariant = {
  name: string;
  weight: number;
  weightType?: string;
  stickiness?: string;
  payload?: VariantPayload;
  overrides?: VariantOverride[];
};

export type ClientStrategy = {
  id?: string;
  name: string;
  title?: string | null;
  disabled?: boolean | null;
  parameters?: Record<string, string>;
  constraints?: ClientConstraint[];
  segments?: number[];
  variants?: ClientVariant[];
};

export type ClientDependency = { feature: string; enabled?: boolean; variants?: string[] };

export type ClientFeature = {
  name: string;
  enabled: boolean;
  strategies?: ClientStrategy[];
  variants?: ClientVariant[] | null;
  dependencies?: ClientDependency[];
  impressionData?: boolean;
  project?: string;
  type?: string;
  stale?: boolean;
  description?: string | null;
};

export type ClientSegment = { id: number; name?: string; constraints: ClientConstraint[] };

export type ClientFeaturesState = {
  version?: number;
  features: ClientFeature[];
  segments?: ClientSegment[];
  query?: unknown;
  meta?: unknown;
};

/** The delta format (`/api/client/delta`): a hydration, then changes. */
export type DeltaEvent =
  | { eventId: number; type: "hydration"; features: ClientFeature[]; segments?: ClientSegment[] }
  | { eventId: number; type: "feature-updated"; feature: ClientFeature }
  | { eventId: number; type: "feature-removed"; featureName: string; project?: string }
  | { eventId: number; type: "segment-updated"; segment: ClientSegment }
  | { eventId: number; type: "segment-removed"; segmentId: number };

/**
 * What is evaluated against: SDK context fields plus free `properties`. `currentTime` may be
 * a Date or an ISO string (date operators compare with it; default: now).
 */
export type EvaluationContext = {
  userId?: string;
  sessionId?: string;
  remoteAddress?: string;
  environment?: string;
  appName?: string;
  currentTime?: Date | string;
  properties?: Record<string, string | number | boolean | null | undefined>;
  [field: string]: unknown;
};
