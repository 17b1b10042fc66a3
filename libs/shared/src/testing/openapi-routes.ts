type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** One operation of the document with the pattern its path template matches. */
export interface DocumentRoute<O> {
  method: string;
  /** The path template, e.g. `/api/v1/bookings/{id}`. */
  path: string;
  operation: O;
  regex: RegExp;
}

function templateRegex(template: string): RegExp {
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`);
}

/** The document's operations, in document order, and the one a concrete request goes to; built once. */
export class DocumentRoutes<O = Json> {
  readonly all: DocumentRoute<O>[] = [];
  private readonly byLiteralLength: DocumentRoute<O>[];

  constructor(document: Json) {
    for (const [path, item] of Object.entries((document['paths'] ?? {}) as Record<string, Record<string, O>>)) {
      for (const method of METHODS) if (item[method]) this.all.push({ path, method, operation: item[method], regex: templateRegex(path) });
    }
    // Literal segments win over parameters (`/posts/categories` before `/posts/{id}`).
    const literal = (route: DocumentRoute<O>) => route.path.replace(/\{[^}]+\}/g, '').length;
    this.byLiteralLength = [...this.all].sort((a, b) => literal(b) - literal(a));
  }

  find(method: string, url: string): DocumentRoute<O> | undefined {
    const path = url.split('?')[0]!;
    const wanted = method.toLowerCase();
    return this.byLiteralLength.find((route) => route.method === wanted && route.regex.test(path));
  }
}
