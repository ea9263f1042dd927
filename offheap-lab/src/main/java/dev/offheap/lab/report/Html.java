package dev.offheap.lab.report;

/** Escapes text for HTML and SVG. */
final class Html {
    private Html() {}

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
