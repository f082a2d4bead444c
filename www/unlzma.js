// A streaming decoder of LZMA, for the module's first part. The build (www/scripts/pack-module.mjs)
// packs that part with LZMA as well as writing it plain: gzip, which a web server applies by
// itself, leaves it at about 266 KB; LZMA at about 212 KB, and on a slow connection the module's
// download is most of the time before the page answers a click. Browsers decode gzip but not
// LZMA, so the page decodes it here (www/boot.js), chunk by chunk as it arrives, and hands the
// bytes on to the browser's streaming compiler; when anything fails, the page falls back to the
// plain file.
//
// The format is LZMA's "alone" format (what `xz --format=lzma` writes): a 13-byte header (the
// properties lc, lp and pb in one byte, the dictionary size, and the unpacked size, which the
// build writes there), then the range-coded stream; and after it, added by the build, the CRC-32
// of the unpacked bytes (4 bytes, little-endian), which the decoder checks, so that a damaged
// file is refused rather than compiled. The decoding follows LZMA's published
// specification and its reference decoder (the LZMA SDK's LzmaSpec.cpp): the same probability
// model, state machine and distance coding, written here as a resumable loop.
//
// The build writes this file into boot.js in place of its placeholder; the tests load it alone
// (tests/unlzma.spec.ts).

/**
 * A decoder: `push(bytes)` takes the next bytes of the packed file and returns the bytes it
 * could unpack so far (a new array, possibly empty); `end()`, once the file is over, returns the
 * rest. Either throws an Error on a file that is not well formed or is cut short.
 */
function unlzma() {
  'use strict';
  // The probabilities, one array: where each of LZMA's models starts.
  var IS_MATCH = 0; // 12 states × 16 position states
  var IS_REP = 192;
  var IS_REP_G0 = 204;
  var IS_REP_G1 = 216;
  var IS_REP_G2 = 228;
  var IS_REP0_LONG = 240; // 12 × 16
  var POS_SLOT = 432; // 4 length states × 64
  var SPEC_POS = 688; // 1 + 128 full distances − 14 (the end of the position models)
  var ALIGN = 803; // 16
  var LEN = 819; // choice, choice 2, low 16 × 8, mid 16 × 8, high 256: 514
  var LEN_LOW = 2; // within a length model: 8 probabilities per position state
  var LEN_MID = LEN_LOW + 128;
  var LEN_HIGH = LEN_MID + 128;
  var REP_LEN = LEN + 514;
  var LITERAL = REP_LEN + 514; // 0x300 × 2^(lc + lp)
  var HEADER = 13;
  // Every packet reads fewer bytes than this: it is decoded only when they have all arrived.
  var MARGIN = 64;

  var input = new Uint8Array(1 << 16);
  var inLen = 0;
  var inPos = 0;
  var out = null;
  var size = 0;
  var outPos = 0;
  var flushed = 0;
  var lc = 0;
  var lpMask = 0;
  var pbMask = 0;
  var probs = null;
  var range = 0;
  var code = 0;
  var state = 0;
  var rep0 = 0;
  var rep1 = 0;
  var rep2 = 0;
  var rep3 = 0;
  var ended = false;
  var crc = -1;
  var crcTable = new Int32Array(256);
  for (var n = 0; n < 256; n++) {
    var c = n;
    for (var k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crcTable[n] = c;
  }

  function bad(why) {
    throw new Error('the packed module is not well formed: ' + why);
  }
  function next() {
    if (inPos >= inLen) bad('it ends too soon');
    return input[inPos++];
  }
  function bit(i) {
    var p = probs[i];
    var bound = (range >>> 11) * p;
    var b;
    if (code < bound) {
      range = bound;
      probs[i] = p + ((2048 - p) >> 5);
      b = 0;
    } else {
      range -= bound;
      code -= bound;
      probs[i] = p - (p >> 5);
      b = 1;
    }
    if (range < 16777216) {
      range *= 256;
      code = code * 256 + next();
    }
    return b;
  }
  function tree(base, bits) {
    var m = 1;
    for (var i = 0; i < bits; i++) m = (m << 1) | bit(base + m);
    return m - (1 << bits);
  }
  function reverse(base, bits) {
    var m = 1;
    var symbol = 0;
    for (var i = 0; i < bits; i++) {
      var b = bit(base + m);
      m = (m << 1) | b;
      symbol |= b << i;
    }
    return symbol;
  }
  function direct(bits) {
    var r = 0;
    for (var i = 0; i < bits; i++) {
      range = Math.floor(range / 2);
      var b = 0;
      if (code >= range) {
        code -= range;
        b = 1;
      }
      r = r * 2 + b;
      if (range < 16777216) {
        range *= 256;
        code = code * 256 + next();
      }
    }
    return r;
  }
  function length(base, posState) {
    if (bit(base) === 0) return tree(base + LEN_LOW + (posState << 3), 3);
    if (bit(base + 1) === 0) return 8 + tree(base + LEN_MID + (posState << 3), 3);
    return 16 + tree(base + LEN_HIGH, 8);
  }
  function distance(len) {
    var slot = tree(POS_SLOT + ((len < 3 ? len : 3) << 6), 6);
    if (slot < 4) return slot;
    var bits = (slot >>> 1) - 1;
    var dist = (2 | (slot & 1)) * Math.pow(2, bits);
    if (slot < 14) return dist + reverse(SPEC_POS + dist - slot, bits);
    return dist + direct(bits - 4) * 16 + reverse(ALIGN, 4);
  }
  function start() {
    var props = input[0];
    if (props >= 225) bad('its properties byte is ' + props);
    lc = props % 9;
    props = (props / 9) | 0;
    lpMask = (1 << props % 5) - 1;
    pbMask = (1 << ((props / 5) | 0)) - 1;
    var high = input[9] | (input[10] << 8) | (input[11] << 16) | (input[12] << 24);
    size = (input[5] | (input[6] << 8) | (input[7] << 16)) + input[8] * 16777216;
    if (high !== 0 || size >= 0x7fffffff) bad('its header gives no unpacked size');
    out = new Uint8Array(size);
    probs = new Uint16Array(LITERAL + (0x300 << (lc + (props % 5))));
    probs.fill(1024);
    inPos = HEADER;
    if (next() !== 0) bad('its range coder does not start with 0');
    for (var i = 0; i < 4; i++) code = code * 256 + next();
    range = 0xffffffff;
    if (code === range) bad('its range coder starts out of range');
  }
  // One packet: a literal byte, or a match (a copy of earlier bytes).
  function packet() {
    var posState = outPos & pbMask;
    if (bit(IS_MATCH + (state << 4) + posState) === 0) {
      var prev = outPos > 0 ? out[outPos - 1] : 0;
      var base = LITERAL + 0x300 * (((outPos & lpMask) << lc) + (prev >> (8 - lc)));
      var symbol = 1;
      if (state >= 7) {
        var match = out[outPos - rep0 - 1];
        do {
          var matchBit = (match >> 7) & 1;
          match <<= 1;
          var b = bit(base + ((1 + matchBit) << 8) + symbol);
          symbol = (symbol << 1) | b;
          if (matchBit !== b) break;
        } while (symbol < 0x100);
      }
      while (symbol < 0x100) symbol = (symbol << 1) | bit(base + symbol);
      out[outPos++] = symbol & 0xff;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      return;
    }
    var len;
    if (bit(IS_REP + state) !== 0) {
      if (outPos === 0) bad('it repeats a match before any byte');
      if (bit(IS_REP_G0 + state) === 0) {
        if (bit(IS_REP0_LONG + (state << 4) + posState) === 0) {
          state = state < 7 ? 9 : 11;
          out[outPos] = out[outPos - rep0 - 1];
          outPos++;
          return;
        }
      } else {
        var dist;
        if (bit(IS_REP_G1 + state) === 0) {
          dist = rep1;
        } else {
          if (bit(IS_REP_G2 + state) === 0) {
            dist = rep2;
          } else {
            dist = rep3;
            rep3 = rep2;
          }
          rep2 = rep1;
        }
        rep1 = rep0;
        rep0 = dist;
      }
      len = length(REP_LEN, posState);
      state = state < 7 ? 8 : 11;
    } else {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      len = length(LEN, posState);
      state = state < 7 ? 7 : 10;
      rep0 = distance(len);
      if (rep0 === 0xffffffff) bad('it ends before its unpacked size');
      if (rep0 >= outPos) bad('a match reaches before the start');
    }
    var from = outPos - rep0 - 1;
    var end = Math.min(outPos + len + 2, size);
    while (outPos < end) out[outPos++] = out[from++];
  }
  function decode(last) {
    if (out === null) {
      if (inLen < HEADER + 5) {
        if (last) bad('it is shorter than its header');
        return;
      }
      start();
    }
    while (outPos < size && (last || inPos + MARGIN <= inLen)) packet();
  }
  function take() {
    var got = out === null ? new Uint8Array(0) : out.slice(flushed, outPos);
    for (var i = 0; i < got.length; i++) crc = crcTable[(crc ^ got[i]) & 0xff] ^ (crc >>> 8);
    flushed = outPos;
    return got;
  }
  return {
    push: function (bytes) {
      if (ended) bad('bytes came after its end');
      if (inLen + bytes.length > input.length) {
        var grown = new Uint8Array(Math.max(input.length * 2, inLen + bytes.length));
        grown.set(input.subarray(0, inLen));
        input = grown;
      }
      input.set(bytes, inLen);
      inLen += bytes.length;
      decode(false);
      return take();
    },
    end: function () {
      ended = true;
      decode(true);
      if (outPos !== size) bad('it ends too soon');
      var got = take();
      var want = inLen < 4 ? 0 : input[inLen - 4] | (input[inLen - 3] << 8) | (input[inLen - 2] << 16) | (input[inLen - 1] << 24);
      if (inLen - inPos < 4 || (crc ^ -1) !== want) bad('its bytes do not match their checksum');
      return got;
    },
  };
}
