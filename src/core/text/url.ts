/** URL checks on web-standard `URL` alone, for every runtime. */

/** Whether `text` is an absolute http(s) URL. */
export function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === "http:" || protocol === "https:";
}
