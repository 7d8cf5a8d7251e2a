"""What the tests share: boards, mail servers, scripted games, readers of pictures."""
