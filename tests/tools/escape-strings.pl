#!/usr/bin/perl
# hdparm 9.65's -I text with the device's strings escaped as ours are:
# each byte of a string field outside printable ASCII becomes \xNN.
# 9.65 printed those bytes raw, a newline among them too, so a field's
# value runs to the first newline followed by a line that looks like
# the next field or section ("\tTransport: ...", "Standards:").
use strict;
use warnings;
local $/;
my $text = <STDIN>;
my $labels = qr/Model Number|Serial Number|Firmware Revision|Media Serial Num|Media Manufacturer/;
$text =~ s{^(\t(?:$labels): *)(.*?)\n(?=\t?[A-Z][A-Za-z /()-]*:|\[exit|\z)}{
	my ($label, $value) = ($1, $2);
	$value =~ s/([^\x20-\x7e])/sprintf("\\x%02x", ord $1)/ge;
	"$label$value\n";
}gmse;
print $text;
