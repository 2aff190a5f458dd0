/** /register prefilled with the unregistered target (query parameters email, phone, type). */
export function registerUrlFor(type: 'email' | 'phone', target: string): string {
  const params = new URLSearchParams({ type, [type]: target });
  return `/register?${params.toString()}`;
}
