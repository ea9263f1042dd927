package dev.offheap.lab.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HtmlTest {
    @Test
    void escapesTheCharactersThatEndTextOrAnAttribute() {
        assertThat(Html.escape("a<b & \"c\" > d's")).isEqualTo("a&lt;b &amp; &quot;c&quot; &gt; d's");
    }

    @Test
    void escapesAmpersandsFirstSoEntitiesInTheTextStayText() {
        assertThat(Html.escape("&lt;")).isEqualTo("&amp;lt;");
    }
}
