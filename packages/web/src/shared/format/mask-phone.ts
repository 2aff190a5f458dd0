/** Phone numbers are shown with the middle four digits masked (document 2, profile settings). */
export function maskPhone(phone: string): string {
  if (phone.length < 8) return phone;
  const start = Math.floor((phone.length - 4) / 2);
  return `${phone.slice(0, start)}****${phone.slice(start + 4)}`;
}
