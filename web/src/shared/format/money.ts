const formatters = new Map<string, Intl.NumberFormat>();

/**
 * The one money formatter: an amount in major units (as the API answers) in the currency,
 * for the viewer's language: "Rp 1.000.000" (id), "IDR 1,000,000" (en). Fraction digits are
 * the currency's own (CLDR), so the UI holds no rule of its own about them.
 */
export function formatMoney(amount: number | string, currency: string, lang: string): string {
  const key = `${lang}|${currency}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(localeOf(lang), { style: 'currency', currency });
    formatters.set(key, f);
  }
  return f.format(typeof amount === 'string' ? Number(amount) : amount);
}

const counts = new Map<string, Intl.NumberFormat>();

/** A count for the viewer's language: "10,000" (en), "10.000" (id). */
export function formatCount(n: number, lang: string): string {
  let f = counts.get(lang);
  if (!f) {
    f = new Intl.NumberFormat(localeOf(lang));
    counts.set(lang, f);
  }
  return f.format(n);
}

export const localeOf = (lang: string) => (lang === 'id' ? 'id-ID' : 'en-GB');
