// Reading JSON answers field by field: the Go side sends nil slices as null
// and omits empty optional fields; anything of the wrong type reads as empty.

import type { McpTransport } from './types';

export type WireObject = Record<string, unknown>;

export const isRecord = (v: unknown): v is WireObject => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
export const bool = (v: unknown): boolean => v === true;
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const strList = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string' && x !== '');

const TRANSPORTS: readonly McpTransport[] = ['streamable-http', 'sse'];

/** An MCP transport; anything unknown reads as streamable HTTP. */
export function transportOf(v: unknown): McpTransport {
  return TRANSPORTS.find((t) => t === v) ?? 'streamable-http';
}
