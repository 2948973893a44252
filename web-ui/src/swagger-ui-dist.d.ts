// swagger-ui-dist ships no type declarations; this covers what docs.ts uses.
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  export interface SwaggerUIOptions {
    url?: string;
    dom_id?: string;
    domNode?: HTMLElement;
    validatorUrl?: string | null;
    deepLinking?: boolean;
    layout?: string;
    presets?: unknown[];
    plugins?: unknown[];
    docExpansion?: 'list' | 'full' | 'none';
    defaultModelsExpandDepth?: number;
    displayRequestDuration?: boolean;
    tryItOutEnabled?: boolean;
    withCredentials?: boolean;
    queryConfigEnabled?: boolean;
    [option: string]: unknown;
  }

  interface SwaggerUIBundleStatic {
    (options: SwaggerUIOptions): unknown;
    presets: { apis: unknown; [name: string]: unknown };
    plugins: Record<string, unknown>;
  }

  const SwaggerUIBundle: SwaggerUIBundleStatic;
  export default SwaggerUIBundle;
}
