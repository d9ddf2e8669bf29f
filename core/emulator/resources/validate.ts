// Field rules for request bodies, reported the way the platform does: every problem at once,
// as an array of messages in a 400.
import { isObject } from '../../json.js';
import { badRequest } from '../errors.js';

/** The JSON type a field must have. */
export type FieldType = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'string|array';

/** What one field must look like. */
export interface FieldRule {
  type: FieldType;
  required?: boolean;
  oneOf?: readonly string[];
  /** Smallest array length. */
  min?: number;
}

/** Rules for the fields of a body, by field name. */
export type Rules = Readonly<Record<string, FieldRule>>;

const ARTICLE: Record<FieldType, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean value',
  array: 'an array',
  object: 'an object',
  'string|array': 'a string or an array',
};

function typeOk(value: unknown, type: FieldType): boolean {
  switch (type) {
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    case 'string|array':
      return typeof value === 'string' || Array.isArray(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === type;
  }
}

/** Problems with a body; `partial` (PATCH) checks only the fields present. */
export function problems(body: Record<string, unknown>, rules: Rules, partial = false): string[] {
  const out: string[] = [];
  for (const field in rules) {
    const rule = rules[field] as FieldRule;
    const value = body[field];
    const absent = value === undefined || value === null || value === '';
    if (absent) {
      if (rule.required && !partial) {
        out.push(`${field} should not be empty`);
        if (rule.oneOf) out.push(`${field} must be one of the following values: ${rule.oneOf.join(', ')}`);
      }
      continue;
    }
    if (!typeOk(value, rule.type)) out.push(`${field} must be ${ARTICLE[rule.type]}`);
    else if (rule.oneOf && !rule.oneOf.includes(value as string)) out.push(`${field} must be one of the following values: ${rule.oneOf.join(', ')}`);
    else if (rule.min !== undefined && Array.isArray(value) && value.length < rule.min) out.push(`${field} must contain at least ${rule.min} elements`);
  }
  return out;
}

/** Throws a 400 listing every problem of a body. */
export function check(body: Record<string, unknown>, rules: Rules | undefined, partial = false): void {
  if (!rules) return;
  const found = problems(body, rules, partial);
  if (found.length) throw badRequest(found);
}
