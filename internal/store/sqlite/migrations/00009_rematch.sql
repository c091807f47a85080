-- Rematches (issue 12): a game created as the rematch of a finished one
-- names it (rematch_of), and a finished game keeps the rematch offer made
-- at it, as internal/table encodes it (NULL: none).

-- +goose Up
ALTER TABLE games ADD COLUMN rematch_of TEXT;
ALTER TABLE games ADD COLUMN rematch BLOB;

-- +goose Down
ALTER TABLE games DROP COLUMN rematch;
ALTER TABLE games DROP COLUMN rematch_of;
