package io.quanta.streams.store;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Helpers of the state stores' compact binary encodings: length-prefixed UTF-8 strings (null allowed, no 64 KiB
 * limit), string lists and maps, nullable boxed numbers. Every encoding starts with a format version byte so that a
 * newer reader can still read older state.
 */
public final class Binary {

    private Binary() {
    }

    /** Writes a value with {@code body} after the version byte; returns the bytes. */
    public static byte[] write(int version, Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (Out out = new Out(bytes)) {
            out.writeByte(version);
            body.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Reads a value after checking its version byte. */
    public static <T> T read(byte[] data, int version, String what, Reader<T> body) {
        try (In in = new In(new ByteArrayInputStream(data))) {
            int found = in.readUnsignedByte();
            if (found != version) {
                throw new IllegalArgumentException("unknown " + what + " format version " + found);
            }
            return body.read(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed " + what + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a value of any format version from {@code oldest} to {@code newest}: state written by an older version
     * of the scheduler (a rolling upgrade reads the old changelog) is still read; {@code body} gets the version.
     */
    public static <T> T read(byte[] data, int oldest, int newest, String what, VersionedReader<T> body) {
        try (In in = new In(new ByteArrayInputStream(data))) {
            int found = in.readUnsignedByte();
            if (found < oldest || found > newest) {
                throw new IllegalArgumentException("unknown " + what + " format version " + found + " (this version "
                        + "reads " + oldest + " to " + newest + ")");
            }
            return body.read(found, in);
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed " + what + ": " + e.getMessage(), e);
        }
    }

    /** Reads the fields of a value of a given format version. */
    @FunctionalInterface
    public interface VersionedReader<T> {
        T read(int version, In in) throws IOException;
    }

    /** Writes the fields of a value. */
    @FunctionalInterface
    public interface Body {
        void write(Out out) throws IOException;
    }

    /** Reads the fields of a value. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(In in) throws IOException;
    }

    /** A data output with the helpers. */
    public static final class Out extends DataOutputStream {
        Out(ByteArrayOutputStream bytes) {
            super(bytes);
        }

        public void writeString(String s) throws IOException {
            if (s == null) {
                writeInt(-1);
                return;
            }
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            writeInt(b.length);
            write(b);
        }

        public void writeStrings(List<String> list) throws IOException {
            writeInt(list.size());
            for (String s : list) {
                writeString(s);
            }
        }

        public void writeStringMap(Map<String, String> map) throws IOException {
            writeInt(map.size());
            for (Map.Entry<String, String> e : new TreeMap<>(map).entrySet()) {
                writeString(e.getKey());
                writeString(e.getValue());
            }
        }

        public void writeNullableDouble(Double d) throws IOException {
            writeBoolean(d != null);
            if (d != null) {
                writeDouble(d);
            }
        }

        public void writeNullableLong(Long l) throws IOException {
            writeBoolean(l != null);
            if (l != null) {
                writeLong(l);
            }
        }
    }

    /** A data input with the helpers. */
    public static final class In extends DataInputStream {
        In(ByteArrayInputStream bytes) {
            super(bytes);
        }

        public String readString() throws IOException {
            int n = readInt();
            if (n < 0) {
                return null;
            }
            return new String(readNBytes(n), StandardCharsets.UTF_8);
        }

        public List<String> readStrings() throws IOException {
            int n = readInt();
            List<String> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(readString());
            }
            return out;
        }

        public SortedMap<String, String> readStringMap() throws IOException {
            int n = readInt();
            SortedMap<String, String> out = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                out.put(readString(), readString());
            }
            return out;
        }

        public Double readNullableDouble() throws IOException {
            return readBoolean() ? readDouble() : null;
        }

        public Long readNullableLong() throws IOException {
            return readBoolean() ? readLong() : null;
        }
    }
}
