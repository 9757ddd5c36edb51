/**
 * Texts of one group of screens, English and Kiswahili key for key (en.ts merges every part; the type
 * makes a missing Kiswahili key a build error). Top-level keys here belong to this part alone.
 */
export const moneyEn = {};

export const moneySw: typeof moneyEn = {};
