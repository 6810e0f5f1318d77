// The metadata of scale-gen's --metadata library (issue 31's scale check): what a family's
// ten years of phone and camera photos say about themselves, a deterministic function of the
// photo's number, so every run makes the same library.
//   dates     2015-01-01 to 2024-12-31, in the photos' order (an album of 100 is a stretch of
//             time, as an import folder is): trips of 3-14 days, one every 40 days on average, are
//             shot 8 times as densely as everyday days; 40 % of everyday days have no photo. A
//             day's photos are spread from 09:00 to 21:00.
//   GPS       on a third of the photos (by a hash of the number), within about 5 km of the trip's
//             city on a trip and of the home city (which changes every 2.5 years) otherwise
//   keywords  on a tenth: 1-3 flat ones (XMP dc:subject) and one hierarchical (lr:hierarchicalSubject,
//             its leaf also in dc:subject, as Lightroom writes them)
//   people    on 15 %: 1-3 of 300 named people as MWG face regions, the first few far more often
//             (a family), some names outside ASCII
//   rating    on a twentieth: xmp:Rating 4 or 5
// Written as an Exif APP1 (DateTimeOriginal; GPS IFD) and, when there is any, an XMP APP1.
#include "scale-meta.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DAYS 3653   // 2015-01-01 .. 2024-12-31

static const struct city { const char *name; double lat, lon; } homes[] = {
    {"Oslo", 59.9139, 10.7522}, {"Berlin", 52.5200, 13.4050}, {"Toronto", 43.6532, -79.3832},
    {"Melbourne", -37.8136, 144.9631},
};
static const struct city trips[] = {
    {"Bergen", 60.3913, 5.3221}, {"Paris", 48.8566, 2.3522}, {"Rome", 41.9028, 12.4964},
    {"Barcelona", 41.3874, 2.1686}, {"Lisbon", 38.7223, -9.1393}, {"Reykjavik", 64.1466, -21.9426},
    {"New York", 40.7128, -74.0060}, {"San Francisco", 37.7749, -122.4194}, {"Yosemite", 37.7459, -119.5332},
    {"Mexico City", 19.4326, -99.1332}, {"Rio de Janeiro", -22.9068, -43.1729}, {"Buenos Aires", -34.6037, -58.3816},
    {"Cape Town", -33.9249, 18.4241}, {"Nairobi", -1.2921, 36.8219}, {"Marrakesh", 31.6295, -7.9811},
    {"Cairo", 30.0444, 31.2357}, {"Istanbul", 41.0082, 28.9784}, {"Dubai", 25.2048, 55.2708},
    {"Delhi", 28.6139, 77.2090}, {"Bangkok", 13.7563, 100.5018}, {"Singapore", 1.2839, 103.8515},
    {"Tokyo", 35.6762, 139.6503}, {"Kyoto", 35.0116, 135.7681}, {"Seoul", 37.5665, 126.9780},
    {"Sydney", -33.8688, 151.2093}, {"Queenstown", -45.0312, 168.6626}, {"Honolulu", 21.3069, -157.8583},
    {"Vancouver", 49.2827, -123.1207}, {"Tromsø", 69.6492, 18.9553}, {"Suva", -18.1416, 178.4419},
};
static const char *flat_keywords[] = {"beach", "sunset", "family", "food", "hiking", "snow", "birthday",
    "architecture", "friends", "garden", "concert", "museum", "portrait", "night", "rain", "boat"};
static const char *hierarchical_keywords[] = {"Nature|Beach", "Nature|Mountains", "Nature|Forest",
    "Animals|Cat", "Animals|Dog", "Animals|Birds|Gull", "Events|Birthday", "Events|Wedding",
    "Events|Christmas", "Food|Dessert", "Food|Street food", "Sport|Skiing", "Sport|Football"};
static const char *first_names[] = {"Anna", "Erik", "Sofie", "Lars", "Åse", "Jonas", "Zoë", "José",
    "Ingrid", "Mehmet", "Yuki", "Priya", "Olu", "Chen", "Marta", "Noah", "Léa", "Sven", "Amira", "Kai"};
static const char *last_names[] = {"Berg", "Nilsen", "Müller", "Okafor", "Tanaka", "García", "Smith",
    "Haugen", "Kowalski", "Rossi", "Dubois", "Singh", "Kim", "Andersen", "O'Brien"};
#define COUNT(a) (sizeof (a) / sizeof (a)[0])

static unsigned long long mix(unsigned long long x) {   // SplitMix64's finaliser
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
// A number in [0, 1) drawn for `what` (a photo or a day) and `salt` (which decision), independent of the others.
static double draw(unsigned long long what, unsigned salt) {
    return (double)(mix(mix(what) + salt) >> 11) / 9007199254740992.0;
}

static int trip_of_day[DAYS];       // -1: an everyday day, else the index in trips[]
static long first_photo[DAYS + 1];  // the first photo of each day (in the library's order)

void meta_plan(long photos) {
    static double weight[DAYS];
    double total = 0;
    for (int d = 0; d < DAYS;) {
        if (draw(d, 1) < 1.0 / 40) {   // a trip starts
            int length = 3 + (int)(draw(d, 2) * 12), city = (int)(draw(d, 3) * COUNT(trips));
            for (int i = 0; i < length && d < DAYS; i++, d++) { trip_of_day[d] = city; weight[d] = 8; total += 8; }
        } else {
            trip_of_day[d] = -1;
            weight[d] = draw(d, 4) < 0.4 ? 0 : 1 + 2 * draw(d, 5);
            total += weight[d];
            d++;
        }
    }
    double sum = 0;
    for (int d = 0; d < DAYS; d++) { first_photo[d] = (long)llround(photos * sum / total); sum += weight[d]; }
    first_photo[DAYS] = photos;
}

static void civil(int day, int *year, int *month, int *mday) {   // days since 2015-01-01
    static const int lengths[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    *year = 2015;
    for (;;) {
        int leap = (*year % 4 == 0), days = 365 + leap;
        if (day < days) break;
        day -= days; (*year)++;
    }
    for (*month = 1;; (*month)++) {
        int days = lengths[*month - 1] + (*month == 2 && *year % 4 == 0);
        if (day < days) break;
        day -= days;
    }
    *mday = day + 1;
}

// Appends a marker segment FF marker, its length, and `size` bytes of body to out.
static size_t segment(unsigned char *out, int marker, const void *body, size_t size) {
    out[0] = 0xFF; out[1] = (unsigned char)marker;
    out[2] = (unsigned char)((size + 2) >> 8); out[3] = (unsigned char)((size + 2) & 0xFF);
    memcpy(out + 4, body, size);
    return size + 4;
}

static void put16(unsigned char *p, unsigned v) { p[0] = v & 0xFF; p[1] = v >> 8; }
static void put32(unsigned char *p, unsigned v) { put16(p, v & 0xFFFF); put16(p + 2, v >> 16); }
static void entry(unsigned char *p, unsigned tag, unsigned type, unsigned count, unsigned value) {
    put16(p, tag); put16(p + 2, type); put32(p + 4, count); put32(p + 8, value);
}
static void dms(unsigned char *p, double degrees) {   // three RATIONALs: degrees, minutes, seconds/1000
    double a = fabs(degrees), minutes = (a - floor(a)) * 60;
    put32(p, (unsigned)floor(a)); put32(p + 4, 1);
    put32(p + 8, (unsigned)floor(minutes)); put32(p + 12, 1);
    put32(p + 16, (unsigned)llround((minutes - floor(minutes)) * 60000)); put32(p + 20, 1000);
}

// The Exif APP1 (little-endian TIFF): IFD0 points to the Exif IFD (DateTimeOriginal) and, with a
// position, to the GPS IFD (version, latitude, longitude).
static size_t exif(unsigned char *out, const char *stamp, int has_gps, double lat, double lon) {
    unsigned char b[512] = "Exif\0\0II*\0\x08\0\0\0";
    unsigned char *t = b + 6;                                  // offsets are from the TIFF header
    unsigned ifd0 = 8, exif_ifd = ifd0 + 2 + 2 * 12 + 4, date = exif_ifd + 2 + 12 + 4;
    unsigned gps = date + 20, lat_at = gps + 2 + 5 * 12 + 4, lon_at = lat_at + 24, end = has_gps ? lon_at + 24 : gps;
    put16(t + ifd0, has_gps ? 2 : 1);
    entry(t + ifd0 + 2, 0x8769, 4, 1, exif_ifd);
    if (has_gps) entry(t + ifd0 + 14, 0x8825, 4, 1, gps);
    put16(t + exif_ifd, 1);
    entry(t + exif_ifd + 2, 0x9003, 2, 20, date);
    memcpy(t + date, stamp, 20);
    if (has_gps) {
        put16(t + gps, 5);
        entry(t + gps + 2, 0x0000, 1, 4, 0x00000302);            // version 2.3.0.0
        entry(t + gps + 14, 0x0001, 2, 2, lat < 0 ? 'S' : 'N');
        entry(t + gps + 26, 0x0002, 5, 3, lat_at);
        entry(t + gps + 38, 0x0003, 2, 2, lon < 0 ? 'W' : 'E');
        entry(t + gps + 50, 0x0004, 5, 3, lon_at);
        dms(t + lat_at, lat); dms(t + lon_at, lon);
    }
    return segment(out, 0xE1, b, 6 + end);
}

// The XMP APP1 of photo g, or nothing when it has no keywords, people or rating.
static size_t xmp(unsigned char *out, unsigned long long g) {
    static char x[8192];
    int keywords = draw(g, 11) < 0.10, people = draw(g, 12) < 0.15, rated = draw(g, 13) < 0.05;
    if (!keywords && !people && !rated) return 0;
    int n = snprintf(x, sizeof x, "http://ns.adobe.com/xap/1.0/%c<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
        "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\""
        " xmlns:lr=\"http://ns.adobe.com/lightroom/1.0/\" xmlns:mwg-rs=\"http://www.metadataworkinggroup.com/schemas/regions/\""
        " xmlns:stArea=\"http://ns.adobe.com/xmp/sType/Area#\" xmlns:stDim=\"http://ns.adobe.com/xap/1.0/sType/Dimensions#\"", 0);
    if (rated) n += snprintf(x + n, sizeof x - n, " xmp:Rating=\"%d\"", 4 + (int)(draw(g, 14) * 2));
    n += snprintf(x + n, sizeof x - n, ">");
    if (keywords) {
        const char *path = hierarchical_keywords[(int)(draw(g, 15) * COUNT(hierarchical_keywords))];
        const char *leaf = strrchr(path, '|') + 1;
        n += snprintf(x + n, sizeof x - n, "<dc:subject><rdf:Bag>");
        for (int k = 0, count = 1 + (int)(draw(g, 16) * 3); k < count; k++)
            n += snprintf(x + n, sizeof x - n, "<rdf:li>%s</rdf:li>", flat_keywords[(int)(draw(g, 20 + k) * COUNT(flat_keywords))]);
        n += snprintf(x + n, sizeof x - n, "<rdf:li>%s</rdf:li></rdf:Bag></dc:subject>"
                      "<lr:hierarchicalSubject><rdf:Bag><rdf:li>%s</rdf:li></rdf:Bag></lr:hierarchicalSubject>", leaf, path);
    }
    if (people) {
        n += snprintf(x + n, sizeof x - n, "<mwg-rs:Regions rdf:parseType=\"Resource\">"
                      "<mwg-rs:AppliedToDimensions stDim:w=\"64\" stDim:h=\"48\" stDim:unit=\"pixel\"/><mwg-rs:RegionList><rdf:Bag>");
        for (int k = 0, count = 1 + (int)(draw(g, 17) * 3); k < count; k++) {
            int who = (int)(pow(draw(g, 30 + k), 3) * COUNT(first_names) * COUNT(last_names));   // a family, then the rest
            n += snprintf(x + n, sizeof x - n, "<rdf:li><rdf:Description mwg-rs:Name=\"%s %s\" mwg-rs:Type=\"Face\">"
                          "<mwg-rs:Area stArea:x=\"%.2f\" stArea:y=\"0.40\" stArea:w=\"0.20\" stArea:h=\"0.30\" stArea:unit=\"normalized\"/>"
                          "</rdf:Description></rdf:li>", first_names[who % COUNT(first_names)],
                          last_names[who / COUNT(first_names)], 0.2 + 0.3 * k);
        }
        n += snprintf(x + n, sizeof x - n, "</rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions>");
    }
    n += snprintf(x + n, sizeof x - n, "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end=\"r\"?>");
    return segment(out, 0xE1, x, (size_t)n);
}

size_t meta_segments(unsigned char *out, long photo) {
    static int day = 0;
    while (day > 0 && photo < first_photo[day]) day--;         // photos come in order; allow restarts
    while (day < DAYS - 1 && photo >= first_photo[day + 1]) day++;
    long in_day = first_photo[day + 1] - first_photo[day];
    long second = 9 * 3600 + (in_day > 0 ? (photo - first_photo[day]) * 12 * 3600 / in_day : 0);
    int year, month, mday;
    civil(day, &year, &month, &mday);
    char stamp[64];   // 20 bytes written: the compiler cannot know the fields' ranges
    snprintf(stamp, sizeof stamp, "%04d:%02d:%02d %02ld:%02ld:%02ld", year, month, mday,
             second / 3600, second / 60 % 60, second % 60);
    unsigned long long g = (unsigned long long)photo;
    const struct city *where = trip_of_day[day] >= 0 ? &trips[trip_of_day[day]] : &homes[day / 913 % COUNT(homes)];
    int has_gps = draw(g, 10) < 1.0 / 3;
    double lat = where->lat + (draw(g, 18) - 0.5) * 0.09, lon = where->lon + (draw(g, 19) - 0.5) * 0.09;
    size_t n = exif(out, stamp, has_gps, lat, lon);
    return n + xmp(out + n, g);
}
