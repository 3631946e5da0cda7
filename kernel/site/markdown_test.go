package site

import (
	"strings"
	"testing"
)

// TestLineBreaks checks that a line break inside Chinese text renders as nothing, and that an
// English one is kept, also next to punctuation: a browser shows a kept break as a space.
func TestLineBreaks(t *testing.T) {
	for _, c := range []struct{ lang, src, want, glued string }{
		{"en", "It ends here.\nThe next one, with a comma,\nand a colon:\nthe end; done.",
			"It ends here.\nThe next one, with a comma,\nand a colon:\nthe end; done.", "here.The"},
		{"zh-CN", "回报在回合末尾逐渐变小：\n剩下可收集的奖励更少了。", "回报在回合末尾逐渐变小：剩下可收集的奖励更少了。", ""},
		{"zh-CN", "### 画出回报\n\n回报在回合末尾逐渐变小，\n剩下的更少。", "回报在回合末尾逐渐变小，剩下的更少。", ""},
	} {
		html, _, _, err := newMarkdownRenderer(c.lang).render(c.src, &section{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(html, c.want) || c.glued != "" && strings.Contains(html, c.glued) {
			t.Errorf("%s: %q renders as %q; want it to contain %q and not %q", c.lang, c.src, html, c.want, c.glued)
		}
	}
}
