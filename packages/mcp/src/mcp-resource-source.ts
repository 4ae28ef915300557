/** A resource as `resources/list` shows it. */
export interface McpResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Bytes, when known. */
  readonly size?: number;
}

/** A resource template (RFC 6570) as `resources/templates/list` shows it. */
export interface McpResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** One part of a read resource: text, or bytes as base64 (`blob`). */
export type McpResourceContents =
  | { readonly uri: string; readonly mimeType?: string; readonly text: string }
  | { readonly uri: string; readonly mimeType?: string; readonly blob: string };

/** A refusal: `not-found` (no such resource: MCP's -32002) or `refused` (a URI this source will not read: -32602). */
export interface McpResourceRefusal {
  readonly ok: false;
  readonly reason: 'not-found' | 'refused';
  readonly message: string;
}

/**
 * What `serveHarness({ resources })` offers as MCP resources. `workspaceResources({ root })` is
 * the workspace's files; any object of this shape works (a harness's own documents). Every method
 * may be called by several sessions at once; none may throw (a refusal is a value).
 */
export interface McpResourceSource {
  /** One page of resources, `cursor` being the `nextCursor` of the page before (`undefined`: the first). */
  list(cursor: string | undefined): Promise<{ readonly resources: readonly McpResource[]; readonly nextCursor?: string } | McpResourceRefusal>;
  readonly templates: readonly McpResourceTemplate[];
  read(uri: string): Promise<{ readonly ok: true; readonly contents: readonly McpResourceContents[] } | McpResourceRefusal>;
  /**
   * What the resource is now, as a string that changes when its content does (a subscription polls
   * it); a refusal when it cannot be read (subscribing to it is refused; once subscribed, a change
   * from readable to not is an update too).
   */
  version(uri: string): Promise<{ readonly ok: true; readonly version: string } | McpResourceRefusal>;
  /** Values for `argument` of `template` starting like `value` (at most 100); none when absent. */
  complete?(template: string, argument: string, value: string): Promise<readonly string[]>;
}
