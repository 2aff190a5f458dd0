// The most used passwords of at least PASSWORD_MIN_LENGTH characters (shorter ones are refused
// by length already), lower-case, from the public breach-corpus rankings (SecLists' most common
// passwords, with the Chinese-speaking lists' favourites: this product's users). A guess list
// tries these first, so none of them may protect an account.
const LIST = `
password password1 password12 password123 password1234 password! password2 1password
passw0rd passw0rd1 p@ssw0rd p@ssword p@ssw0rd1 p@55w0rd pa55word pa55w0rd passwort
12345678 123456789 1234567890 12345678910 0123456789 01234567 87654321 987654321 9876543210
11111111 22222222 33333333 44444444 55555555 66666666 77777777 88888888 99999999 00000000
1111111111 2222222222 5555555555 6666666666 8888888888 9999999999 0000000000
12341234 11223344 12121212 12344321 11112222 123123123 123321123 123412345 112233445566
147258369 159753456 741852963 963852741 159357456 147852369 123654789 789456123 456789123
12345679 123456780 1234567899 12345678a 123456789a 12345678q 1234567a 123456aa 123456abc
123456qwe 123456asd 123456789q 123qweasd 123qwe123 123abc123 123abc456 112233aa
a1234567 a12345678 a123456789 aa123456 aa12345678 aa123456789 aaa12345 aaa123456 abc12345
abc123456 abcd1234 abcd12345 abcd123456 abc@1234 abc@123456 abcdefgh abcdefg1 abcdefghi
a1b2c3d4 a1b2c3d4e5 1a2b3c4d 1a2b3c4d5e a1s2d3f4 aaaaaaaa zzzzzzzz qqqqqqqq
qwertyui qwertyuiop qwerty12 qwerty123 qwerty1234 qwerty12345 qwerty123456 qwerty11
qwe12345 qwe123456 qwe123qwe qweqweqwe qweasdzxc qweasd123 qwer1234 qwer12345 qwerasdf
qwertyu1 q1w2e3r4 q1w2e3r4t5 q1w2e3r4t5y6 1q2w3e4r 1q2w3e4r5t 1q2w3e4r5t6y 1qaz2wsx
1qaz2wsx3edc 1qazxsw2 1qaz@wsx 1qaz!qaz !qaz2wsx !qaz@wsx zaq12wsx zaq1xsw2 zaq1zaq1
qazwsxedc qazwsx123 qaz123456 12qwaszx 1234qwer 1234asdf 1234abcd 1234qwerty asdf1234
asdfghjk asdfghjkl asdasdasd asd123456 asdf123456 asdfasdf asdfqwer zxcvbnm1 zxcvbnm123
zxcvbnm12 zxc123456 zxcvasdf zxcv1234 zxcvbn123 xiaoxiao woaini1314 woaini520 woaini123
woaini521 woaiwojia aini1314 5201314520 1314520520 52013145 13145200 520520520 5201314a
qq123456 qq1234567 qq12345678 qq111111 a5201314 woshishui wodemima iloveyou iloveyou1
iloveyou2 iloveyou! loveyou1 lovelove princess princess1 sunshine sunshine1 football
football1 baseball baseball1 basketball superman superman1 whatever trustno1 starwars
starwars1 computer computer1 michelle jennifer jordan23 liverpool chelsea1 arsenal1
welcome1 welcome123 welcome12 letmein1 letmein123 master12 master123 admin123 admin1234
admin@123 admin12345 administrator root1234 root123456 changeme changeme1 default1
monkey12 monkey123 dragon12 dragon123 shadow12 shadow123 michael1 mustang1 charlie1
jessica1 babygirl babygirl1 butterfly chocolate elephant midnight spiderman batman123
pokemon1 minecraft fuckyou1 fuckyou123 killer12 hello123 hello1234 hellohello helloworld
google123 internet samsung1 iphone123 maverick jonathan jennifer1 thomas123 nicole123
1234567q 1234567qw 1q2w3e4r5 1qa2ws3ed 12qw34er 1z2x3c4v 0987654321 09876543 98765432
20082008 20092009 20102010 20112011 20122012 19901990 19911991 19921992 19931993
19881988 19891989 19871987 19861986 20000000 20202020 20212021 20222022 20232023 20242024
aa112233 aa123123 abc123abc a11111111 11111111a 88888888a 66666666a qwertyqwerty
asdfghjkl1 zxcvbnmm qwertyuio 1qaz1qaz 2wsx3edc qweqwe123 123qwe456 qwe123qwe123
testtest test1234 test12345 test123456 guest123 user1234 demo1234 temp1234 pass1234
pass12345 pass123456 mypassword secret123 security letmeinnow access14 abc123abc123
`;

/** The list as a set (lower-case), looked up with the candidate lower-cased. */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(LIST.split(/\s+/).filter(Boolean));
