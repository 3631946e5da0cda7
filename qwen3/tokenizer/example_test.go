package tokenizer_test

import (
	"fmt"

	"github.com/agenticrl/course/qwen3/files"
	"github.com/agenticrl/course/qwen3/tokenizer"
)

func Example() {
	d, err := files.Find("") // --model-dir, the Hugging Face cache, or .cache/qwen3 after `make setup`
	if err != nil {
		fmt.Println(err)
		return
	}
	tok, err := tokenizer.Load(d.Path)
	if err != nil {
		fmt.Println(err)
		return
	}
	ids, offsets := tok.EncodeWithOffsets("<|im_start|>user\nIt's 日本語<|im_end|>")
	for i, id := range ids {
		fmt.Printf("%6d %-14q bytes %2d..%2d special=%v\n", id, tok.Token(id), offsets[i].Start, offsets[i].End, tok.IsSpecial(id))
	}
	fmt.Printf("%q\n", tok.Decode(ids))
	fmt.Printf("%q\n", tok.Decode([]int{101059})) // one token, two characters
	fmt.Printf("%+q\n", tok.Decode([]int{99}))    // one byte of a character: U+FFFD
	// Output:
	// 151644 "<|im_start|>" bytes  0..12 special=true
	//    872 "user"         bytes 12..16 special=false
	//    198 "Ċ"            bytes 16..17 special=false
	//   2132 "It"           bytes 17..19 special=false
	//    594 "'s"           bytes 19..21 special=false
	//  75402 "ĠæĹ¥"         bytes 21..25 special=false
	//  21894 "æľ¬"          bytes 25..28 special=false
	// 102819 "èªŀ"          bytes 28..31 special=false
	// 151645 "<|im_end|>"   bytes 31..41 special=true
	// "<|im_start|>user\nIt's 日本語<|im_end|>"
	// "日本"
	// "\ufffd"
}
