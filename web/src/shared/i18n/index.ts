import i18next, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'id', label: 'Bahasa Indonesia' },
] as const;
export type Lang = (typeof LANGUAGES)[number]['code'];

/** The same keys as the English messages, every leaf a string: Indonesian cannot miss one. */
export type Messages<T> = { [K in keyof T]: T[K] extends string ? string : Messages<T[K]> };

/** A preference only (never a credential), so localStorage is fine for it. */
const STORAGE_KEY = 'topup.lang';

declare global {
  interface Window {
    /** Keys asked for but absent, per language: the browser tests fail on any. */
    __missingI18nKeys?: string[];
  }
}

function initialLanguage(): Lang {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved === 'en' || saved === 'id') return saved;
  return navigator.language.toLowerCase().startsWith('id') ? 'id' : 'en';
}

/**
 * i18next with both languages bundled (they are small). No fallback language: a key missing
 * in one language shows up (and is recorded) instead of silently reading English.
 */
export async function initI18n(resources: { en: Record<string, unknown>; id: Record<string, unknown> }) {
  window.__missingI18nKeys = [];
  const lng = initialLanguage();
  document.documentElement.lang = lng;
  await i18next.use(initReactI18next).init({
    resources: { en: { translation: resources.en }, id: { translation: resources.id } } as Resource,
    lng,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    saveMissing: true,
    missingKeyHandler: (lngs, _ns, key) => {
      const entry = `${lngs.join(',')}:${key}`;
      console.error(`i18n: missing key ${entry}`);
      window.__missingI18nKeys?.push(entry);
    },
  });
  return i18next;
}

export function setLanguage(lang: Lang) {
  localStorage.setItem(STORAGE_KEY, lang);
  document.documentElement.lang = lang;
  void i18next.changeLanguage(lang);
}
