const DRIVE_BASE_URL = "https://www.googleapis.com/drive/v3/";

class DriveClient {
  #fields = "files(id,name,modifiedTime)";

  files(orderBy: string) {
    return http.fetch(`${DRIVE_BASE_URL}files?orderBy=${encodeURIComponent(orderBy)}&pageSize=20&fields=${this.#fields}`); //@hosts(www.googleapis.com)
  }
}

export default async function driveFiles() {
  const res = await new DriveClient().files("modifiedTime desc");
  const { files } = await res.json();
  return files.map((f: any) => `${f.modifiedTime.slice(0, 10)} ${f.name}`);
}
