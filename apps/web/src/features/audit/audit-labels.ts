import { en } from '@/lib/i18n/en';

/**
 * Which audit action codes and changed fields have plain words in the translations (parts/records.ts,
 * `auditAction` and `audit.field`). The server may write codes this app does not know yet: those are shown
 * as they are, marked as technical text (docs/web-app.md, "Behaviour").
 */
type Actions = typeof en.auditAction;
export type KnownAction = { [G in keyof Actions]: `${G}.${keyof Actions[G] & string}` }[keyof Actions];
export type KnownField = keyof typeof en.audit.field;

const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

export function isKnownAction(code: string): code is KnownAction {
  const dot = code.indexOf('.');
  if (dot < 0) return false;
  const group = code.slice(0, dot);
  return has(en.auditAction, group) && has(en.auditAction[group as keyof Actions], code.slice(dot + 1));
}

export const isKnownField = (key: string): key is KnownField => has(en.audit.field, key);
