export const fetch = (url: string) => http.fetch(url);
