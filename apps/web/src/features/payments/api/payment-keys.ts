/** Query keys of the payments feature (docs/web-app.md, "Payments and M-Pesa top-ups"). */
export const paymentKeys = {
  all: ['payments'] as const,
  lists: ['payments', 'list'] as const,
  list: (query: object) => ['payments', 'list', query] as const,
  one: (paymentId: string) => ['payments', 'one', paymentId] as const,
};
