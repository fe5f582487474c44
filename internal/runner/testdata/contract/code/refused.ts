const q = (s: string) => encodeURIComponent(s.trim());

export default async function refused() {
  const res = await http.fetch(
    "https://api.other.example/search?q=" +
      q(
        " weather ",
      ),
  );
  return res.status;
}
