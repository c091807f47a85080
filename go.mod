module github.com/razziagame/razzia

go 1.26.8
