-- Catalog at scale, part 8 (issue 20): a page of a search reads its first candidates in the
-- sort's order from offer_figures instead of ordering every offer of the fleet first.
--
-- Owners:
--   catalog  offer_figures_price_idx, offer_figures_model_price_idx, offer_figures_vram_idx,
--            offer_figures_ratio_idx (indexes on its table offer_figures)
--
-- OfferPages reads the offers whose row holds (price, model and VRAM as of the last refresh)
-- ordered by the sort key and the offer id, as these indexes are: price (the default sort),
-- price within a GPU model (the model filter as the search spells it, lower-case), VRAM
-- largest first, and price per GB of VRAM exactly as Java divides it (a VRAM of 0 counts as 1).
-- The offers whose row does not hold are read from the views, as before, and merged in.
CREATE INDEX offer_figures_price_idx ON offer_figures (amount_per_gpu_hour, offer_id);
CREATE INDEX offer_figures_model_price_idx ON offer_figures (lower(gpu_model), amount_per_gpu_hour, offer_id);
CREATE INDEX offer_figures_vram_idx ON offer_figures (vram_gb DESC, offer_id);
CREATE INDEX offer_figures_ratio_idx ON offer_figures ((amount_per_gpu_hour :: float8 / greatest(vram_gb, 1)), offer_id);
-- The rows that do not hold, found without reading the others: older than the newest price row,
-- computed before the price last in effect, or without model or VRAM.
CREATE INDEX offer_figures_seen_idx ON offer_figures (prices_seen);
CREATE INDEX offer_figures_price_at_idx ON offer_figures (price_at);
CREATE INDEX offer_figures_incomplete_idx ON offer_figures (offer_id)
  WHERE prices_seen IS NULL OR price_at IS NULL OR gpu_model IS NULL OR vram_gb IS NULL;

-- Every open offer has a row, so the offers whose figures must come from the views are all found
-- through the indexes above (no anti-join over every offer): a row without figures yet is written
-- with the offer, and again if its row is deleted while the offer is open; the refresh fills it.
INSERT INTO offer_figures (offer_id, host_id)
SELECT o.id, o.host_id FROM offers o
WHERE o.closed_at IS NULL AND NOT EXISTS (SELECT 1 FROM offer_figures f WHERE f.offer_id = o.id);

CREATE FUNCTION offer_figures_placeholder() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  offer text;
BEGIN
  IF TG_TABLE_NAME = 'offers' THEN
    offer := NEW.id;
  ELSE
    offer := OLD.offer_id;
  END IF;
  INSERT INTO offer_figures (offer_id, host_id)
  SELECT o.id, o.host_id FROM offers o WHERE o.id = offer AND o.closed_at IS NULL
  ON CONFLICT (offer_id) DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER offers_figures_placeholder AFTER INSERT ON offers
  FOR EACH ROW EXECUTE FUNCTION offer_figures_placeholder();
CREATE TRIGGER offer_figures_placeholder AFTER DELETE ON offer_figures
  FOR EACH ROW EXECUTE FUNCTION offer_figures_placeholder();
