/* TRIM sector ranges: read from text, and cut into the pieces a command carries. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ranges.h"
#include "report.h"

bool next_range_piece(const struct sector_range *r, unsigned int n, struct range_cursor *c, uint64_t max_count,
		      uint64_t *lba, uint64_t *count)
{
	while (c->index < n && c->done >= r[c->index].count) {
		c->index++;
		c->done = 0;
	}
	if (c->index >= n || !max_count)
		return false;
	uint64_t left = r[c->index].count - c->done;

	*lba = r[c->index].lba + c->done;
	*count = left > max_count ? max_count : left;
	c->done += *count;
	return true;
}

unsigned int range_cursor_done(const struct range_cursor *c, const struct sector_range *r, unsigned int n)
{
	if (c->index >= n)
		return n;
	return c->index + (c->done >= r[c->index].count ? 1 : 0);
}

/* One "LBA:COUNT" word: decimal digits on both sides, a count of at least 1, inside 48 bits. */
static bool parse_range_word(const char *w, struct sector_range *r)
{
	char *end;

	if (!isdigit((unsigned char)*w))
		return false;
	errno = 0;
	r->lba = strtoull(w, &end, 10);
	if (errno || *end != ':' || !isdigit((unsigned char)end[1]))
		return false;
	r->count = strtoull(end + 1, &end, 10);
	return !errno && !*end && r->count && r->lba < RANGE_LBA_LIMIT && r->count <= RANGE_LBA_LIMIT - r->lba;
}

static int malformed(const char *source, unsigned int pair)
{
	complain("%s: error at lba:count pair #%u: %s\n", source, pair, strerror(EINVAL));
	return EINVAL;
}

int read_ranges(FILE *f, const char *source, struct sector_range **out, unsigned int *n)
{
	struct sector_range *r = NULL;
	unsigned int cap = 0;
	char *word = NULL;
	size_t len = 0, room = 0;
	int ch, err = 0;

	*n = 0;
	do {
		ch = getc(f);
		if (ch != EOF && ch != '\0' && !isspace(ch)) {
			if (len + 2 > room) {
				char *bigger = realloc(word, room = room ? room * 2 : 64);

				if (!bigger) {
					err = ENOMEM;
					break;
				}
				word = bigger;
			}
			word[len++] = (char)ch;
			continue;
		}
		if (ch == '\0') {
			/* Text never holds a NUL: the input is not what the user thinks it is. */
			err = malformed(source, *n + 1);
			break;
		}
		if (!len)
			continue;
		word[len] = '\0';
		len = 0;
		if (*n == cap) {
			struct sector_range *bigger = realloc(r, (size_t)(cap = cap ? cap * 2 : 64) * sizeof(*r));

			if (!bigger) {
				err = ENOMEM;
				break;
			}
			r = bigger;
		}
		if (!parse_range_word(word, &r[*n])) {
			err = malformed(source, *n + 1);
			break;
		}
		(*n)++;
	} while (ch != EOF);
	if (!err && ferror(f)) {
		err = errno ? errno : EIO;
		complain("%s: %s\n", source, strerror(err));
	}
	free(word);
	if (err) {
		free(r);
		r = NULL;
		*n = 0;
	}
	*out = r;
	return err;
}

unsigned int next_range_batch(const struct sector_range *r, unsigned int n, struct range_cursor *c,
			      unsigned int max_pieces, uint64_t max_piece, uint64_t max_total,
			      struct sector_range *pieces, uint64_t *sectors)
{
	unsigned int k = 0;

	*sectors = 0;
	while (k < max_pieces && *sectors < max_total) {
		uint64_t room = max_total - *sectors;

		if (!next_range_piece(r, n, c, room < max_piece ? room : max_piece, &pieces[k].lba, &pieces[k].count))
			break;
		*sectors += pieces[k++].count;
	}
	return k;
}
