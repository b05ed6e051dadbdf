// Reads a WARC file with warcio.js and prints one JSON object per record,
// the fields the Go test compares: node read.mjs IN
import fs from "fs";
import crypto from "crypto";
import warcio from "./load.mjs";

const parser = new warcio.WARCParser(fs.createReadStream(process.argv[2]));
for await (const record of parser) {
  const payload = await record.readFully(false);
  console.log(JSON.stringify({
    offset: parser.offset,
    version: record.warcHeaders.protocol,
    type: record.warcType,
    target: record.warcTargetURI || "",
    id: record.warcHeader("WARC-Record-ID"),
    date: record.warcDate,
    length: Number(record.warcHeader("Content-Length")),
    status: record.httpHeaders ? Number(record.httpHeaders.statusCode) || 0 : 0,
    payloadSHA256: crypto.createHash("sha256").update(payload).digest("hex"),
  }));
}
