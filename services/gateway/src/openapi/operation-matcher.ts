import type { OpenApiOperation } from '@trove/openapi';

interface CompiledOperation {
  operation: OpenApiOperation;
  pattern: RegExp;
}

/**
 * Finds the operation of the contract a request is for, by method and path template. It matches
 * the way Express and the validator do (case-insensitive, optional trailing slash), so no spelling
 * of a path can reach a route without going through the authentication this match decides.
 */
export class OperationMatcher {
  private readonly compiled: CompiledOperation[];

  constructor(operations: OpenApiOperation[]) {
    this.compiled = operations
      .map((operation) => ({ operation, pattern: compile(operation.path) }))
      // Literal paths before templated ones, should a template ever shadow a literal sibling.
      .sort((a, b) => paramCount(a.operation.path) - paramCount(b.operation.path));
  }

  match(method: string, path: string): OpenApiOperation | undefined {
    const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    return this.compiled.find((c) => c.operation.method === m && c.pattern.test(path))?.operation;
  }
}

function compile(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`, 'i');
}

function paramCount(template: string): number {
  return (template.match(/\{/g) ?? []).length;
}
